// The run/stop protocol both workers speak: `run` and `stop` messages in, replies tagged
// with their runId out; a newer run or Stop makes an older run end at its next chunk.

/**
 * Serves `run(id, msg)` for every `run` message; a thrown error is posted as `errorType`.
 * Returns `post(id, message)`, `tick()` (yield to the event loop, so Stop is heard) and
 * `current(id)` (false once a newer run started or Stop came for this one).
 */
export function serveRuns(run, errorType) {
  let active = 0;
  const post = (id, m) => self.postMessage({ ...m, runId: id });
  self.onmessage = async (ev) => {
    const msg = ev.data;
    if (msg.cmd === 'stop') {
      if (active === msg.runId) active = -msg.runId;
      return;
    }
    if (msg.cmd !== 'run') return;
    active = msg.runId;
    try {
      await run(msg.runId, msg);
    } catch (e) {
      post(msg.runId, { type: errorType, message: String(e?.message ? e.message : e) });
    }
  };
  return {
    post,
    tick: () => new Promise((r) => setTimeout(r, 0)),
    current: (id) => active === id,
  };
}
