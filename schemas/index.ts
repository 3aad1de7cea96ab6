/** Every wire schema of the service, by kind. */
export * from "./common";
export * from "./kaas";
export * from "./kaasBackup";
export * from "./registry";
export * from "./volume";
export * from "./validate";
