import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { API_TOKEN_BYTES, API_TOKEN_PATTERN } from 'isnad/engine'
import { nodeName } from './container-node.js'
import { nodeCount, type Scenario } from '../scenario/index.js'

/*
 * `isnad sim compose`: one file for one scenario that runs unchanged with `docker compose up`,
 * `podman-compose up` and `docker stack deploy` on a Docker Swarm (docs/simulation.md, "Docker"). A
 * bootstrap node, one service per scenario node (`isnad sim node`), and a driver (`isnad sim drive`)
 * that plays the scenario through the nodes' HTTP APIs (and their supervisors' control channels, for
 * churn), writes its results to the named volume `results` and prints them to its log.
 *
 * What makes one file fit both worlds:
 * - no top-level `name:` (compose-only; a stack file with it does not validate): the project name is
 *   COMPOSE_PROJECT_NAME in .env for Compose, the stack name for Swarm;
 * - nothing shared on disk between hosts: the scenario and the project's token travel as `secrets`
 *   (Swarm distributes them to the hosts; Compose and podman-compose bind-mount the files; `configs`
 *   would suit the scenario better, but podman-compose 1.0 has only secrets), the containers find
 *   each other by service name (discovery.ts), the results go to a named volume;
 * - `deploy.endpoint_mode: dnsrr`: a service name resolves to its task's own address (a Swarm
 *   service's virtual IP does not route everywhere, e.g. in this project's sandbox); Compose ignores it;
 * - run once: `restart: "no"` for Compose and `deploy.restart_policy.condition: none` for Swarm (each
 *   ignores the other's key). A node restarted by Swarm would come back with a new identity on an
 *   empty volume, so nodes run once too;
 * - `depends_on` orders Compose's start; a Swarm ignores it, so nodes and driver wait by discovery.
 * Latency and loss are applied by every node with tc netem (hence NET_ADMIN), or by userland link
 * shaping where the kernel has no netem.
 */

export interface ComposeOptions {
  /** @default 'isnad' (docker build -f docker/Dockerfile -t isnad .); on a multi-host swarm, an image in a registry. */
  image?: string
}

/** Where the secrets appear in every container. */
export const SCENARIO_SECRET = '/run/secrets/scenario'
export const TOKEN_SECRET = '/run/secrets/sim-token'
/** The compose version whose schema `docker stack deploy` (Docker 20.10) validates against; Compose v2 ignores it. */
const COMPOSE_FILE_VERSION = '3.8'

/** The project name used by .env (Compose) and suggested for the stack: `isnad-sim-<scenario>`. */
export function projectName (scenario: Scenario): string {
  return `isnad-sim-${scenario.name}`
}

export function composeProject (scenario: Scenario, options: ComposeOptions = {}): Record<string, unknown> {
  const image = options.image ?? 'isnad'
  const secretArgs = ['--token-file', TOKEN_SECRET]
  const runOnce = { restart: 'no', networks: ['sim'], secrets: ['scenario', 'sim-token'] }
  const deploy = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ endpoint_mode: 'dnsrr', restart_policy: { condition: 'none' }, ...extra })
  const nodeService = (name: string, index?: number): Record<string, unknown> => ({
    image,
    command: ['sim', 'node', '--scenario', SCENARIO_SECRET, ...secretArgs, '--name', name, '--home', '/data',
      ...(index === undefined ? [] : ['--index', String(index)])],
    cap_add: ['NET_ADMIN'],
    ...runOnce,
    deploy: deploy()
  })
  const services: Record<string, unknown> = { bootstrap: nodeService('bootstrap') }
  const names = Array.from({ length: nodeCount(scenario.nodes) }, (_, i) => nodeName(i))
  names.forEach((name, i) => { services[name] = { ...nodeService(name, i), depends_on: ['bootstrap'] } })
  services.driver = {
    image,
    command: ['sim', 'drive', SCENARIO_SECRET, ...secretArgs, '--out', '/sim/results', '--print'],
    volumes: ['results:/sim/results'],
    depends_on: names,
    ...runOnce,
    // On a multi-host swarm the results volume is on the manager, where `docker stack deploy` ran.
    deploy: deploy({ placement: { constraints: ['node.role == manager'] } })
  }
  return {
    version: COMPOSE_FILE_VERSION,
    services,
    // Compose makes it a bridge network, a Swarm an overlay network spanning the hosts.
    networks: { sim: {} },
    volumes: { results: {} },
    secrets: { scenario: { file: './scenario.json' }, 'sim-token': { file: './sim-token' } }
  }
}

/** The project's token: the one in `directory` if there is one (a deployed stack's secrets cannot change), else a new one. */
async function projectToken (directory: string): Promise<string> {
  const existing = (await readFile(join(directory, 'sim-token'), 'utf8').catch(() => '')).trim()
  return API_TOKEN_PATTERN.test(existing) ? existing : randomBytes(API_TOKEN_BYTES).toString('base64url')
}

/** Writes compose.yaml, scenario.json, the project's token (sim-token, mode 0644) and .env into `directory`. */
export async function writeComposeProject (scenario: Scenario, directory: string, options: ComposeOptions = {}): Promise<string> {
  await mkdir(directory, { recursive: true })
  await writeFile(join(directory, 'scenario.json'), JSON.stringify(scenario, null, 2) + '\n')
  // 0644: `docker compose` and podman-compose mount a file secret as it is on the host, and the image's
  // nodes run as uid 10001, not the file's owner. The token guards only this simulated network's nodes.
  await writeFile(join(directory, 'sim-token'), `${await projectToken(directory)}\n`)
  await chmod(join(directory, 'sim-token'), 0o644)
  await writeFile(join(directory, '.env'), `COMPOSE_PROJECT_NAME=${projectName(scenario)}\n`)
  const path = join(directory, 'compose.yaml')
  await writeFile(path, `# generated by \`isnad sim compose\` for scenario ${scenario.name}; see docs/simulation.md\n` +
    `#   docker compose up -d            (or podman-compose -p ${projectName(scenario)} up -d)\n` +
    `#   docker stack deploy -c compose.yaml ${projectName(scenario)}\n` +
    // YAML 1.1 quoting: `restart: no` unquoted is the boolean false to docker stack's and docker-compose v1's YAML 1.1 parsers.
    stringify(composeProject(scenario, options), { aliasDuplicateObjects: false, version: '1.1' }))
  return path
}
