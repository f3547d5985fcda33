/** RFC 6962 §2.1.1 / RFC 9162 §2.1.3: the audit path of leaf `leafIndex` in the tree of `treeSize` leaves. */
export interface InclusionProof {
  leafIndex: number
  treeSize: number
  /** Sibling subtree hashes (32 bytes each) from the leaf up to the root. */
  path: Uint8Array[]
}

/** RFC 6962 §2.1.2 / RFC 9162 §2.1.4: the proof that the tree of `first` leaves is a prefix of the tree of `second`. */
export interface ConsistencyProof {
  first: number
  second: number
  path: Uint8Array[]
}
