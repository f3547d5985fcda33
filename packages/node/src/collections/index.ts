/* Small data structures the layers above share: a map that forgets its oldest entries past a bound. */
export { BoundedMap } from './bounded-map.js'
