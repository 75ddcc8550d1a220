/**
 * The types of `ctx.ask({ ... })`: an object of questions by input key, and the answers it
 * resolves with, by the same keys.
 */
import type { Question, QuestionValue } from "./question.js";

/** Several questions asked in one round, by input key. */
export type Asked = Readonly<Record<string, Question>>;

/** The answers to {@link Asked} questions, by key: each question's value (see `QuestionValue`). */
export type AskValues<R extends Asked> = { -readonly [K in keyof R]: QuestionValue<R[K]> };
