export { diffText, isEmptyDiff, MAX_DIFF_LINES, type TextDiff } from './diff';
export { heuristicSummary, MAX_SUMMARY_LENGTH } from './heuristic';
export {
  chatCompletionsUrl,
  MAX_LLM_SUMMARY_LENGTH,
  MAX_PROMPT_DIFF_LENGTH,
  summarizeChange,
  type ChangeSummary,
  type LlmSummaryOptions,
  type SummarizeOptions,
} from './summarize';
export { valueChangeSummary, type ValueChange } from './value-change';
