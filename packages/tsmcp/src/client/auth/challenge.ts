/**
 * Reading a `WWW-Authenticate` challenge, for the OAuth layer: the parser lives with the HTTP
 * client transport, which names a refusal's challenge in its errors.
 * Spec: RFC 6750 §3, RFC 9728 §5.1.
 */
export {
  type AuthChallenge,
  authChallengeOf,
  parseChallenges,
} from "../../transport/http/client/challenge.js";
