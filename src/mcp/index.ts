export { createMcpServer, type McpServerInit, type NodeAccess } from './server.js'
export * from './evidence.js'
export { toolInputOf } from './tools.js'
