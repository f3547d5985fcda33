/*
 * Topology helpers of the network benchmarks: they live in src/sim (the simulation builds its
 * networks the same way) and are re-exported here for the benchmark files.
 */
export { dialAll, meshesConnected, meshesReady, sleep, waitFor, waitForMeshes, type NodeMesh } from '../../sim/src/pools/mesh.js'
export { randomTopology } from '../../sim/src/scenario/plan.js'
