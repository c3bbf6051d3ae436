/**
 * Non-zero `status.code` values. The envelope has the shape of a google.rpc.Status (code, message, details of
 * {type_url, value}), so the simulator borrows the gRPC canonical codes for the meanings the spec leaves open.
 */
export const StatusCode = {
  invalidArgument: 3,
  notFound: 5,
  resourceExhausted: 8,
  failedPrecondition: 9,
  outOfRange: 11,
  internal: 13,
  /** A project option turns the command off (r34 answers it with its own code 1000). */
  optionDisabled: 1000,
} as const;

export type StatusCodeValue = (typeof StatusCode)[keyof typeof StatusCode];

/**
 * The session read a well-formed request and refused it: a reference to something that does not exist, a value
 * out of range, or a state that does not allow it. Answered with HTTP 200 and a non-zero `status.code`.
 */
export class Refusal extends Error {
  override name = 'Refusal';

  constructor(
    readonly code: StatusCodeValue,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (message: string): Refusal => new Refusal(StatusCode.notFound, message);
export const invalidArgument = (message: string): Refusal => new Refusal(StatusCode.invalidArgument, message);
export const failedPrecondition = (message: string): Refusal => new Refusal(StatusCode.failedPrecondition, message);
export const outOfRange = (message: string): Refusal => new Refusal(StatusCode.outOfRange, message);
export const optionDisabled = (message: string): Refusal => new Refusal(StatusCode.optionDisabled, message);
