/** The sample values a viewer typed into an approval card, by argument name. */
export type Samples = Readonly<Record<string, string>>;

/**
 * The sample typed for `argument`, or undefined: only the viewer's own entries count, so an
 * argument named `constructor` or `__proto__` never shows what the object inherits.
 */
export function sampleFor(samples: Samples, argument: string): string | undefined {
  return Object.hasOwn(samples, argument) ? samples[argument] : undefined;
}

/** The samples with `argument` set to `value` (a new object; `__proto__` stays an own entry). */
export function withSample(samples: Samples, argument: string, value: string): Samples {
  const next: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, samples);
  Object.defineProperty(next, argument, { value, enumerable: true, writable: true, configurable: true });
  return next;
}
