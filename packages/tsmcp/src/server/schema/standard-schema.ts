/**
 * The Standard Schema and Standard JSON Schema interfaces (https://standardschema.dev), copied as
 * the specification recommends so that tsmcp accepts any compliant schema library (zod v4,
 * Valibot, ArkType, ...) without depending on it. Types only.
 */

/** The Standard Schema interface: a schema any library can implement (version 1). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties. */
  interface Props<Input = unknown, Output = Input> {
    /** The version of the standard: 1. */
    readonly version: 1;
    /** The schema library's name. */
    readonly vendor: string;
    /** Validates an unknown value; may answer asynchronously. */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** The inferred types (type-level only). */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** The outcome of `validate`. */
  type Result<Output> = SuccessResult<Output> | FailureResult;
  /** A valid value: the (possibly transformed) output. */
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  /** An invalid value: what is wrong with it. */
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One problem, with the path to the offending value. */
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A path segment given as an object. */
  interface PathSegment {
    readonly key: PropertyKey;
  }
  /** The input and output types of a schema. */
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  /** The input type of a schema. */
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  /** The output type of a schema. */
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/** The Standard JSON Schema interface: a schema that can describe itself as JSON Schema. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  /** The Standard JSON Schema properties. */
  readonly "~standard": StandardJSONSchemaV1.Props<Input, Output>;
}

export declare namespace StandardJSONSchemaV1 {
  /** The Standard JSON Schema properties. */
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: StandardSchemaV1.Types<Input, Output> | undefined;
    /** Converters to JSON Schema; each may throw when a target or a construct is unsupported. */
    readonly jsonSchema: Converter;
  }
  /** Produces the JSON Schema of the input or output type. */
  interface Converter {
    /** The JSON Schema of what the schema accepts. */
    readonly input: (options: Options) => Record<string, unknown>;
    /** The JSON Schema of what the schema produces (after transforms). */
    readonly output: (options: Options) => Record<string, unknown>;
  }
  /** The JSON Schema dialect to produce. */
  type Target = "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
  /** Options of a converter. */
  interface Options {
    readonly target: Target;
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}
