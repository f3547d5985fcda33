/*
 * Topology helpers of the network benchmarks: they live in src/sim (the simulation builds its
 * networks the same way) and are re-exported here for the benchmark files.
 */
export { dialAll, meshesConnected, meshesReady, sleep, waitFor, waitForMeshes, type NodeMesh } from 'isnad-sim'
export { randomTopology } from 'isnad-sim'
