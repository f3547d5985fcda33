/*
 * Topology helpers of the network benchmarks: they live in src/sim (the simulation builds its
 * networks the same way) and are re-exported here for the benchmark files.
 */
export { dialAll, meshesReady, sleep, waitFor, waitForMeshes } from '../src/sim/mesh.js'
export { randomTopology } from '../src/sim/plan.js'
