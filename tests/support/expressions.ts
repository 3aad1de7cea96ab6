/** Expressions the tests build: a regular expression matching a text literally, the service's tag filter. */

/** `text` with every character a regular expression gives meaning to escaped, so that it matches literally. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The service's filter (`?filter=`) selecting the objects that carry `tag`. */
export const byTag = (tag: string): string => `metadata.tags:eq("${tag}")`;

/** The service's filter (`?filter=`) selecting the objects named `name`. */
export const byName = (name: string): string => `metadata.name:eq("${name}")`;
