import { Injectable } from '@nestjs/common';

/**
 * Shortcuts that never change the evidence, on by default: one axe-core scan for production and preview documents
 * in the same state, and a pixel comparison of only the rows in which two screenshots differ. Off, every capture
 * scans itself and every comparison looks at every row; the equivalence test collects the same check both ways and
 * compares every file, finding and comparison.
 */
@Injectable()
export class CollectionShortcuts {
  shareScans = true;
  onlyChangedRows = true;
}
