import { randomBytes } from 'node:crypto';
import { Client, escapeIdentifier } from 'pg';
import { contractValidator } from '../support/contract-validator';

/**
 * Each test file works in its own database, a copy of the run's migrated one. Files run in parallel, and a worker
 * starting in one file resumes every unfinished release check it finds in its database: with one shared database it
 * would pick up another file's checks, through its own Redis prefix, and race that file's assertions.
 */
beforeAll(async () => {
  const runUrl = new URL(process.env.DATABASE_URL!);
  const run = decodeURIComponent(runUrl.pathname.slice(1));
  const fileDatabase = `${run}_${randomBytes(3).toString('hex')}`;
  const maintenance = new URL(runUrl);
  maintenance.pathname = '/postgres';
  const client = new Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    await createFromTemplate(client, fileDatabase, run);
  } finally {
    await client.end();
  }
  const fileUrl = new URL(runUrl);
  fileUrl.pathname = `/${fileDatabase}`;
  process.env.DATABASE_URL = fileUrl.toString();
});

async function createFromTemplate(client: Client, name: string, template: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.query(`create database ${escapeIdentifier(name)} template ${escapeIdentifier(template)}`);
      return;
    } catch (error) {
      // 55006: the template is briefly in use (another file copying it at the same moment).
      if ((error as { code?: string }).code !== '55006' || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/**
 * Every event the file's service recorded is what openapi.yaml's `webhooks` promise receivers of its type: the body
 * a destination gets (the envelope the delivery workers build, and the recorded `data`), checked against its schema.
 */
afterAll(async () => {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; type: string; workspace_id: string; data: unknown }>(
      `select id, type, workspace_id, data,
              to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
         from events order by seq`,
    );
    if (rows.length === 0) return;
    const contract = contractValidator();
    for (const event of rows) contract.assertEvent(event);
  } finally {
    await client.end();
  }
});
