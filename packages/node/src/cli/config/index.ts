/**
 * A node home's configuration file (docs/configuration.md): the keys (`isnad start`'s flags), the
 * file, and how a start takes its settings from flags, the environment and the file.
 */
export { BOOLEAN_WORDS, CONFIG_KEYS, configKeyNamed, type ConfigKey, type ConfigKind, type ConfigValue } from './config-keys.js'
export { CONFIG_FILE, configPath, formatConfigValue, parseConfigValue, readConfig, requireConfigKey, writeConfig, type NodeConfig } from './config-file.js'
export { configuredValue, envConfigValue, withStartConfig, type SettingSource } from './start-options.js'
export { homeShardCount, resolveShardCount } from './shard-count.js'
