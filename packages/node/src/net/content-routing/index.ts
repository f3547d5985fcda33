export * from './constants.js'
export { ContentRouter, type ContentRouterOptions, type FoundProvider, type ProvideStats, type RoutedFetch, type RoutedNetwork } from './content-router.js'
export { dhtService, openDhtDatastore, type DhtServiceOptions } from './dht-service.js'
export { HopCounter } from './hop-counter.js'
