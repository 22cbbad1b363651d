import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122170740 } from './Migration20261122170740';
import { Migration20261122173256 } from './Migration20261122173256';
import { Migration20261122194825 } from './Migration20261122194825';
import { Migration20261122202940 } from './Migration20261122202940';
import { Migration20261124222514 } from './Migration20261124222514';
import { Migration20261124230927 } from './Migration20261124230927';
import { Migration20261124233505 } from './Migration20261124233505';
import { Migration20261125003034 } from './Migration20261125003034';
import { Migration20261125003642 } from './Migration20261125003642';
import { Migration20261125015325 } from './Migration20261125015325';
import { Migration20261125015605 } from './Migration20261125015605';
import { Migration20261127143315 } from './Migration20261127143315';
import { Migration20261127144941 } from './Migration20261127144941';
import { Migration20261127225317 } from './Migration20261127225317';
import { Migration20261128002321 } from './Migration20261128002321';
import { Migration20261128005216 } from './Migration20261128005216';
import { Migration20261128030144 } from './Migration20261128030144';
import { Migration20261128032318 } from './Migration20261128032318';
import { Migration20261128100542 } from './Migration20261128100542';
import { Migration20261128101618 } from './Migration20261128101618';
import { Migration20261128102238 } from './Migration20261128102238';
import { Migration20261128113000 } from './Migration20261128113000';
import { Migration20261128215657 } from './Migration20261128215657';
import { Migration20261128222052 } from './Migration20261128222052';
import { Migration20261129010907 } from './Migration20261129010907';
import { Migration20261129081820 } from './Migration20261129081820';

/** Applied in this order; append each new migration that `npm run migration:create` writes. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122170740', class: Migration20261122170740 },
  { name: 'Migration20261122173256', class: Migration20261122173256 },
  { name: 'Migration20261122194825', class: Migration20261122194825 },
  { name: 'Migration20261122202940', class: Migration20261122202940 },
  { name: 'Migration20261124222514', class: Migration20261124222514 },
  { name: 'Migration20261124230927', class: Migration20261124230927 },
  { name: 'Migration20261124233505', class: Migration20261124233505 },
  { name: 'Migration20261125003034', class: Migration20261125003034 },
  { name: 'Migration20261125003642', class: Migration20261125003642 },
  /** Status pages with their incidents and updates; reports and their runs. */
  { name: 'Migration20261125015325', class: Migration20261125015325 },
  /** Idempotency-Key records of creates (24 hours), answers encrypted. */
  { name: 'Migration20261125015605', class: Migration20261125015605 },
  /** Monitors learn what moves on its own; visual and metadata changes. */
  { name: 'Migration20261127143315', class: Migration20261127143315 },
  /** Pair decisions and fingerprints; every pair in a review's record. */
  { name: 'Migration20261127144941', class: Migration20261127144941 },
  /** A release check's source: the commit and pull request it checks. */
  { name: 'Migration20261127225317', class: Migration20261127225317 },
  /** Code-host connections: destinations with a sealed credential. */
  { name: 'Migration20261128002321', class: Migration20261128002321 },
  /** Monitors' response assertions. */
  { name: 'Migration20261128005216', class: Migration20261128005216 },
  /** Certificates served to HTTPS checks, and certificate_expiry rules. */
  { name: 'Migration20261128030144', class: Migration20261128030144 },
  /** Heartbeat monitors: their schedule, ping secret and last ping; a monitor without a page has no url. */
  { name: 'Migration20261128032318', class: Migration20261128032318 },
  /** Maintenance windows; checks made during one, and their count in the hourly rollups. */
  { name: 'Migration20261128100542', class: Migration20261128100542 },
  /** Dependencies: a monitor's parent, a rule's held alert, and the held alerts listed on the parent. */
  { name: 'Migration20261128101618', class: Migration20261128101618 },
  /** Status-page subscribers, and their notifications waiting to be sent (their outbox). */
  { name: 'Migration20261128102238', class: Migration20261128102238 },
  /** Room on the monitors' pages and a sooner autovacuum: they are updated every check. */
  { name: 'Migration20261128113000', class: Migration20261128113000 },
  /** A check's failed assertions with the values read; assertions name what they read `type` (DESIGN's names). */
  { name: 'Migration20261128215657', class: Migration20261128215657 },
  /** Declarations: the logical key of each resource a declaration manages. */
  { name: 'Migration20261128222052', class: Migration20261128222052 },
  /** Declarations: maintenance windows are declared too. */
  { name: 'Migration20261129010907', class: Migration20261129010907 },
  /** Events: each commit that records some notifies `vigil_events`, so workers relay without polling. */
  { name: 'Migration20261129081820', class: Migration20261129081820 },
];
