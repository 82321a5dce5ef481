/**
 * Reads a Server-Sent Events response as a browser's EventSource would: one call per message with its event name
 * and its `data` parsed as JSON. Resolves when the stream ends or `signal` aborts; a failed request rejects.
 */
export async function readEventStream(url: string, onMessage: (event: string, data: unknown) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch(url, { signal, headers: { accept: 'text/event-stream' } });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  const reader = res.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (data.length > 0) onMessage(event, JSON.parse(data.join('\n')));
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    throw error;
  }
}
