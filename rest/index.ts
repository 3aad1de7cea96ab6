/** The REST layer: one client, one choke point, typed errors. */
export * from "./auth";
export * from "./client";
export * from "./errors";
export * from "./http";
export * from "./paginate";
export * from "./redact";
export * from "./retry";
export * from "./settings";
export * from "./transport";
export * from "./waiter";
