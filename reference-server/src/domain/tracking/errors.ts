import { currencies, leadStatusCode, messageTemplates, type ClientErrorCode, type SaleErrorCode } from '@svc/types';
import { ServiceError } from '../../errors/service-error';

/** A templated catalogue message (`messageTemplates`) in the platform envelope. */
function templated(status: number, message: string, code?: SaleErrorCode, clientCode?: ClientErrorCode): ServiceError {
  const base = { status, envelope: 'platform', message, ...(clientCode ? { clientCode } : {}) } as const;
  return new ServiceError(code ? { ...base, code } : base);
}

/** spec/rules.md "States and transitions": `Customer status cannot be updated to lead. Current status: <status>` (`details.code`). */
export const leadStatusError = (status: string) => templated(400, messageTemplates.leadStatus(status), undefined, leadStatusCode);

/** spec/rules.md "Authentication" rule 6: the request's origin is not in the program's allowed origins (nothing recorded). */
export const originError = (origin: string) => templated(403, messageTemplates.originNotAllowed(origin));

/** spec/rules.md "Errors" 422: `currency XXX is not supported` (word for word); `details.supported` lists what is. Nothing created. */
export const currencyError = (currency: string) =>
  new ServiceError(
    { status: 422, envelope: 'platform', code: 'unsupported_currency', message: messageTemplates.saleCurrency(currency) },
    { details: { supported: [...currencies] } },
  );

/** spec/rules.md "Message catalogue": `provider must be one of: ...`. */
export const providerError = (allowed: readonly string[]) => templated(400, messageTemplates.saleProvider(allowed), 'invalid_request');
