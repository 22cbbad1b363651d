import { BadRequestException, ForbiddenException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { DomainError, RateLimited, Unauthenticated } from '../../src/common/errors/domain-errors';
import { problemFrom } from '../../src/common/errors/problem-details';

describe('problem details', () => {
  it('maps a domain error to its status with its code and members', () => {
    const problem = problemFrom(new DomainError('stale_revision', 'Revision 2 is current.'), '/api/v1/x');
    expect(problem.status).toBe(409);
    expect(problem.body).toEqual({
      type: 'urn:vigil:problem:stale_revision',
      title: 'The revision is stale',
      status: 409,
      detail: 'Revision 2 is current.',
      instance: '/api/v1/x',
      code: 'stale_revision',
    });
  });

  it('adds Retry-After to a 429', () => {
    expect(problemFrom(new RateLimited(17), '/').headers).toEqual({ 'Retry-After': '17' });
  });

  it('never shows an unexpected error: no message, stack or SQL', () => {
    const error = new Error('insert into "users" ("password_hash") values ($1) - duplicate key');
    const problem = problemFrom(error, '/api/v1/admin/users');
    expect(problem.status).toBe(500);
    expect(problem.body.code).toBe('internal');
    expect(problem.body.detail).toBe('Something went wrong on our side. It has been logged.');
    expect(JSON.stringify(problem.body)).not.toMatch(/insert|password|duplicate|stack/);
  });

  it("maps the framework's own HTTP errors to problems", () => {
    expect(problemFrom(new NotFoundException('Cannot GET /x'), '/x').body).toMatchObject({
      code: 'not_found',
      detail: 'No route matches /x.',
    });
    expect(problemFrom(new UnauthorizedException(), '/x').body.code).toBe('unauthenticated');
  });

  it('answers every 401 with a WWW-Authenticate challenge', () => {
    expect(problemFrom(new Unauthenticated(), '/x').headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(problemFrom(new UnauthorizedException(), '/x').headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
  });

  it('gives every 400 its errors, even one the framework raised', () => {
    expect(problemFrom(new BadRequestException('Unexpected input'), '/x').body).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'request', message: 'Unexpected input' }],
    });
  });

  it('never answers a 403 without required_scope: a bare one is a bug, answered as a 500', () => {
    expect(problemFrom(new ForbiddenException(), '/x').status).toBe(500);
  });
});
