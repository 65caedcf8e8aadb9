import { randomUUID } from 'node:crypto';

export interface User {
  /** The stable internal id: svc's `customer_key` in every call, and `svc_customer_key` in Stripe metadata. */
  id: string;
  email: string;
}

/** Stands in for your user table. */
export class Users {
  readonly #byId = new Map<string, User>();

  create(email: string): User {
    const user = { id: `user_${randomUUID()}`, email };
    this.#byId.set(user.id, user);
    return user;
  }

  find(id: string | undefined): User | undefined {
    return id === undefined ? undefined : this.#byId.get(id);
  }
}
