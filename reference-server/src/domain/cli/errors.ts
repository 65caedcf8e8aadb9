import { messageTemplates } from '@svc/types';
import { ServiceError } from '../../errors/service-error';

const badRequest = (message: string) => new ServiceError({ status: 400, envelope: 'platform', message });

/** spec/rules.md "CLI errors", POST /init: `Invalid commission_type: <value>. Valid: …`. */
export const commissionTypeError = (value: string) => badRequest(messageTemplates.initCommissionType(value));

/** spec/rules.md "CLI errors", POST /test-event: `Invalid event_type: <value>. Valid: click, lead, sale`. */
export const eventTypeError = (value: string) => badRequest(messageTemplates.testEventType(value));
