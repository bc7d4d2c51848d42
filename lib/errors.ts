/**
 * What storage refuses, in the domain's words: `lib/orgs`, `lib/auth` and `lib/oauth` throw these,
 * and `lib/api/errors.ts` alone turns each kind into an HTTP status. Callers match on the class
 * (`error instanceof NotFoundError`), never on a status or a code string.
 */

/** A field the refusal is about, as a zod issue names it, so that a form can put it on the field. */
export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

export type DomainErrorKind = "not-found" | "conflict" | "forbidden" | "invalid" | "limited";

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  constructor(
    message: string,
    /** The fields at fault, when a form should show the sentence on them. */
    readonly issues?: FieldIssue[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** There is no such thing, or the one asking may not know that there is. */
export class NotFoundError extends DomainError {
  readonly kind = "not-found";
}

/** The thing is not in the state the change needs (taken, changed meanwhile, not read yet). */
export class ConflictError extends DomainError {
  readonly kind = "conflict";
}

/** The one asking may not do this. */
export class ForbiddenError extends DomainError {
  readonly kind = "forbidden";
}

/** The request cannot be done as asked (past a limit, a value that does not fit). */
export class InvalidError extends DomainError {
  readonly kind = "invalid";
}

/** Past a budget (checks a minute, sign-in failures): may be asked again in `retryAfterSeconds`. */
export class LimitError extends DomainError {
  readonly kind = "limited";
  constructor(
    message: string,
    /** Whole seconds, at least 1: the answer's `Retry-After`. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The one field at fault, with the sentence said on it and for the whole request. */
export const onField = (field: string, message: string): FieldIssue[] => [{ path: [field], message }];

/** Sentences said in more than one place, written once. */
export const noOrg = (slug: string) => new NotFoundError(`There is no organisation "${slug}".`);
export const noOrgApp = (org: string, id: string) => new NotFoundError(`The organisation "${org}" has no app "${id}".`);
