// The node home's layout (`--home`, `$ISNAD_HOME`, `~/.isnad`): where each part of a node lives on disk.
export * from './home-paths.js'
