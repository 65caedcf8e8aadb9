export {
  assertValidResponse,
  validateResponse,
  validateWebhookEvent,
  ContractViolation,
  type ObservedResponse,
  type ValidationResult,
} from './validate';
export { contractFetch } from './fetch';
export { createControlClient, ControlError, type ControlClient } from './control-client';
