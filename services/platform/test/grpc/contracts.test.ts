import { auth, billing, catalog, dataset } from '@rde/proto';
import { idempotentMethodsOf, serviceNameOf } from '../../src';

describe('what the client kit reads from the contracts', () => {
  test("the fully qualified service name comes from the generated definition's method paths", () => {
    expect(serviceNameOf(auth.AuthServiceService)).toBe('rde.auth.v1.AuthService');
    expect(serviceNameOf(dataset.DatasetServiceService)).toBe('rde.dataset.v1.DatasetService');
  });

  test('only RPCs whose contract sets idempotency_level are retried; money-moving calls only with a caller-chosen id', () => {
    expect(idempotentMethodsOf(auth.AuthServiceService).sort()).toEqual(
      [
        // Setting a role to what it is changes nothing (decision 0087).
        'changeMemberRole',
        'findWorkspace',
        'getMembership',
        'getWorkspace',
        'listCallerWorkspaces',
        'listKeys',
        'listMembers',
        'resolveBearer',
        'revokeKey',
      ].sort(),
    );
    expect(idempotentMethodsOf(billing.BillingServiceService)).toContain('reserve');
    // Idempotent by the caller's run id (decision 0044), as Reserve is by its hold id.
    expect(idempotentMethodsOf(catalog.CatalogServiceService)).toContain('callTool');
    expect(idempotentMethodsOf(auth.AuthServiceService)).not.toContain('createKey');
    expect(idempotentMethodsOf(dataset.DatasetServiceService)).toEqual(
      expect.arrayContaining(['createDataset', 'exportCsv']),
    );
    expect(idempotentMethodsOf(dataset.DatasetServiceService)).not.toContain('deleteDataset');
  });
});
