import type { EntityManager } from '@mikro-orm/postgresql';
import type { IncidentDto, PublicIncidentDto } from './dto/status-pages.dto';
import { type Incident, IncidentUpdate } from './entities/incident.entity';

/** Incidents with their updates, oldest update first, read in one query. */
export async function presentIncidents(em: EntityManager, incidents: Incident[]): Promise<IncidentDto[]> {
  const updates = incidents.length
    ? await em.find(IncidentUpdate, { incident: { $in: incidents } }, { orderBy: { createdAt: 'asc', id: 'asc' } })
    : [];
  return incidents.map((incident) => ({
    id: incident.id,
    title: incident.title,
    impact: incident.impact,
    status: incident.status,
    created_at: incident.createdAt.toISOString(),
    resolved_at: incident.resolvedAt?.toISOString() ?? null,
    updates: updates
      .filter((update) => update.incident.id === incident.id)
      .map((update) => ({
        id: update.id,
        status: update.status,
        message: update.message,
        created_at: update.createdAt.toISOString(),
      })),
  }));
}

/** What the public sees of an incident: the same, without identifiers. */
export function publicIncident({ id: _id, updates, ...incident }: IncidentDto): PublicIncidentDto {
  return { ...incident, updates: updates.map(({ id: _updateId, ...update }) => update) };
}
