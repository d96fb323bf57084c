/**
 * The columns of a call's tool_use block, which two documented views share (views.ts):
 * transcript_tool_uses and transcript_tool_use_copies.
 */
export const CALL_COLUMNS = {
  name: 'tool name',
  input_keys: "the input's key names, sorted",
  skill: 'the skill a Skill or SlashCommand call named',
  agent_id: 'the sub-agent that made the call',
  is_sidechain: 'made by a sub-agent',
  timestamp: 'of its line',
  version: 'of its line',
  model: 'of its line',
  file: 'its file',
  rec: 'its record number',
  block: 'its position in message.content',
  path: 'the file_path (or notebook_path) of a Write, Edit, MultiEdit or NotebookEdit call, as the transcript spells it',
  command: 'the command line of a Bash call',
};
