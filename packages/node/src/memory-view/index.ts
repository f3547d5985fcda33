export * from './memory-view.js'
export * from './verify-document.js'
export * from './read-json.js'
