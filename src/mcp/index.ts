export { createMcpServer, type McpServerInit, type NodeAccess } from './mcp-server.js'
export * from './evidence-envelope.js'
export { toolInputOf } from './tools.js'
