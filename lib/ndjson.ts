/** The values of a newline-delimited JSON stream, each as soon as its line has arrived. */
export async function* ndjsonValues(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true }); // a character may be split across chunks
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== "") yield JSON.parse(line);
    }
  }
  buffered += decoder.decode();
  if (buffered.trim() !== "") yield JSON.parse(buffered);
}
