/**
 * The `_meta` key under which a tsmcp server names the input request a handshake-era server ->
 * client request stands for (the key the same question has in an `InputRequiredResult` at
 * 2026-07-28), so one script of answers by key serves both eras. A vendor key, reverse-DNS
 * prefixed as the specification asks of `_meta` keys; peers that do not know it ignore it.
 * Spec: basic/index §_meta, basic/patterns/mrtr.
 */
export const INPUT_KEY_META = "dev.tsmcp/input-key";

/** The longest input key a client takes from {@link INPUT_KEY_META}, in UTF-16 code units: 200. */
export const INPUT_KEY_META_MAX_LENGTH = 200;
