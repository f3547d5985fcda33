/*
 * The daemon's periodic work (heartbeat events, checkpoints) on a timer whose first tick comes at a
 * random point of the first interval. Nodes started together (a fleet restarted at once, the nodes
 * of an in-process simulation) then do not all sign and gossip their checkpoints at the same
 * instant: N nodes checkpointing together is N² checkpoint deliveries in one burst.
 */

/** Runs `tick` every `intervalMs`, the first time after a random share of one interval; returns stop. */
export function startPeriodic (tick: () => void, intervalMs: number, random: () => number = Math.random): () => void {
  let timer: NodeJS.Timeout = setTimeout(() => {
    timer = setInterval(tick, intervalMs)
    timer.unref()
    tick()
  }, Math.floor(random() * intervalMs))
  timer.unref()
  return () => { clearTimeout(timer); clearInterval(timer) }
}
