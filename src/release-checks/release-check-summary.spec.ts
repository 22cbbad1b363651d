import type { ReleaseCheckArtifact } from './entities/release-check-artifact.entity';
import { collectionStatusOf, gateOf } from './release-check-summary';

/** Artifacts as far as the rules read them: their state and whether a side has been recorded. */
const artifact = (state: ReleaseCheckArtifact['state'], started = false) =>
  ({ state, production: started ? { state: 'captured' } : null, preview: null }) as unknown as ReleaseCheckArtifact;

describe('gateOf: a person decides; evidence that is missing fails; nothing else passes', () => {
  it.each([
    ['completed', null, 'pending'],
    ['completed', 'approve', 'passed'],
    ['completed', 'reject', 'failed'],
    ['incomplete', null, 'failed'],
    ['incomplete', 'reject', 'failed'],
    ['queued', null, 'pending'],
    ['running', null, 'pending'],
  ] as const)('%s with decision %s is %s', (status, decision, gate) => {
    expect(gateOf(status, decision)).toBe(gate);
  });
});

describe('collectionStatusOf: finished only when no artifact is still collecting', () => {
  it('is queued before any side is recorded, running once one is', () => {
    expect(collectionStatusOf([artifact('collecting'), artifact('collecting')])).toBe('queued');
    expect(collectionStatusOf([artifact('collecting', true), artifact('collecting')])).toBe('running');
    expect(collectionStatusOf([artifact('compared'), artifact('collecting')])).toBe('queued');
  });

  it('is incomplete when any evidence is missing, completed otherwise', () => {
    expect(collectionStatusOf([artifact('compared'), artifact('missing')])).toBe('incomplete');
    expect(collectionStatusOf([artifact('compared'), artifact('compared')])).toBe('completed');
  });
});
