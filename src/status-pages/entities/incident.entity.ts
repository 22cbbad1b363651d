import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { StatusPage } from './status-page.entity';

export const INCIDENT_IMPACTS = ['minor', 'major', 'critical'] as const;
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];
export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** An incident on a status page; its status is its latest update's. */
@Entity({ tableName: 'status_page_incidents' })
@Index({ properties: ['statusPage', 'createdAt'] })
export class Incident {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => StatusPage, { deleteRule: 'cascade' })
  statusPage: StatusPage;

  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'text' })
  impact: IncidentImpact;

  @Property({ type: 'text' })
  status: IncidentStatus;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null = null;
}

/** One posted update of an incident; never changed once posted. */
@Entity({ tableName: 'status_page_incident_updates' })
@Index({ properties: ['incident', 'createdAt'] })
export class IncidentUpdate {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Incident, { deleteRule: 'cascade' })
  incident: Incident;

  @Property({ type: 'text' })
  status: IncidentStatus;

  @Property({ type: 'text' })
  message: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
