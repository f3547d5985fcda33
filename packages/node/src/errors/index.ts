/* One error class for the whole node, and the errors named by their cause (a full disk). */
export { ERROR_CODES, IsnadError, isIsnadError, type ErrorCode, type IsnadErrorOptions } from './isnad-error.js'
export { DISK_FULL_ERRNOS, diskFullError, isDiskFull } from './disk-full.js'
