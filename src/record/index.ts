export * from './encoding.js'
export * from './verify.js'
export * from './sign.js'
