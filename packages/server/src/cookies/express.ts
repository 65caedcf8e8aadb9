import { clickCookieHeaders, type PersistOptions } from './click-cookie';

/** The parts of Express's `req` and `res` the middleware uses (no dependency on Express's types). */
export interface ExpressLikeRequest {
  headers: { cookie?: string | undefined };
  /** Express's `req.hostname` (honours `trust proxy`). */
  hostname: string;
  /** Express's `req.secure` (honours `trust proxy`). */
  secure: boolean;
}
export interface ExpressLikeResponse {
  append(field: string, value: string[]): unknown;
}

/** Express middleware: `app.use(svcClickCookie({ windowDays: 60 }))`. */
export function svcClickCookie(options?: PersistOptions) {
  return (req: ExpressLikeRequest, res: ExpressLikeResponse, next: () => void): void => {
    const cookies = clickCookieHeaders({ cookie: req.headers.cookie, hostname: req.hostname, secure: req.secure }, options);
    if (cookies.length) res.append('Set-Cookie', cookies);
    next();
  };
}
