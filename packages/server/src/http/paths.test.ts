import type { ClickResponse, CliStatusResponse, LinkResponse, SaleResponse } from '@svc/types';
import { describe, expectTypeOf, it } from 'vitest';
import type { OkBody, PathWith } from './paths';

// Checked by tsc (`pnpm lint`): a wrong inference fails to compile.
describe('OkBody', () => {
  it("is the route's 2xx JSON body in spec/openapi.yaml", () => {
    expectTypeOf<OkBody<'/api/v1/track/click', 'post'>>().toEqualTypeOf<ClickResponse>();
    expectTypeOf<OkBody<'/api/v1/track/sale', 'post'>>().toEqualTypeOf<SaleResponse>();
    expectTypeOf<OkBody<'/api/v1/cli/status', 'get'>>().toEqualTypeOf<CliStatusResponse>();
    expectTypeOf<OkBody<'/api/v1/links/{short_link}', 'patch'>>().toEqualTypeOf<LinkResponse>();
  });

  it('takes only routes that answer the method', () => {
    expectTypeOf<'/api/v1/track/sale'>().toExtend<PathWith<'post'>>();
    expectTypeOf<'/api/v1/track/sale'>().not.toExtend<PathWith<'get'>>();
  });
});
