export { assertValidResponse, validateResponse, ContractViolation, type ObservedResponse, type ValidationResult } from './validate';
export { contractFetch } from './fetch';
export { createControlClient, ControlError, type ControlClient } from './control-client';
