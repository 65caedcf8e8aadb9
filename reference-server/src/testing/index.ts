export {
  assertValidResponse,
  validateResponse,
  validateWebhookEvent,
  ContractViolation,
  type ObservedResponse,
  type ValidationResult,
} from './validate';
export { contractFetch } from './fetch';
export { createControlClient, ControlError, type ControlClient, type DashboardSession } from './control-client';
