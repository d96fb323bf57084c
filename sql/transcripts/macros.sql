-- Macros of the transcript loader: each expression it repeats, defined once.
-- Temporary, so they live on the loading connection only and never reach a database file.

-- The skill a tool_use block names, from its name and input: Skill {skill} or {command} (2.0.20 to
-- about 2.0.4x), SlashCommand {command: "/name args"}.
create or replace temp macro omg_skill_of_call(name, skill, command) as
    case
        when name = 'Skill' then coalesce(skill, command)
        when name = 'SlashCommand' then nullif(split_part(ltrim(command, '/'), ' ', 1), '')
    end;

-- The file a writing tool names: what a forged marker is written with (queries/forgeable.sql).
-- NotebookEdit's is notebook_path (a file_path beside it had been read instead), the others' file_path.
create or replace temp macro omg_path_of_call(name, file_path, notebook_path) as
    case when name = 'NotebookEdit' then coalesce(notebook_path, file_path)
         when name in ('Write', 'Edit', 'MultiEdit') then coalesce(file_path, notebook_path) end;

-- A Bash call's command line.
create or replace temp macro omg_command_of_call(name, command) as
    case when name = 'Bash' then command end;

-- TRUE when a line's timestamp or version (read as JSON) is there and not a string: DuckDB would
-- otherwise write a number or an object as text.
create or replace temp macro omg_mistyped(v) as
    coalesce(json_type(v), 'NULL') not in ('VARCHAR', 'NULL');

-- A token count of a response's usage, read as JSON (its text): the integer. A BIGINT column would
-- take "12" as 12, 1.5 as 2, true as 1 and "abc" as NULL, and the response would be counted wrong.
create or replace temp macro omg_tokens(v) as
    try_cast(v::VARCHAR as BIGINT);

-- TRUE when a token count is there and is not an integer of at most 2^63 - 1: its text is not the
-- integer's own (1.5, 1e3, "12", true, past 2^63 - 1). Comparing texts costs less than json_type.
create or replace temp macro omg_tokens_mistyped(v) as
    v is not null and coalesce(omg_tokens(v)::VARCHAR <> v::VARCHAR, true) and v::VARCHAR <> '-0';

-- A token count of usage.cache_creation (read as JSON, so that one that is not an object is seen):
-- the count `key` names, as JSON; NULL for a JSON null, as a STRUCT's field reads it (and
-- mistyped.sql skips it), so that it is unknown rather than mistyped.
create or replace temp macro omg_cache_split(cc, key) as
    nullif(json_extract(cc, '$.' || key), 'null');

-- A usage snapshot's counts and service tier, as a response's columns (unnest() it into them): for a
-- line's usage and a mirrored one's alike.
create or replace temp macro omg_usage_fields(u) as {
    'input_tokens': omg_tokens(u.input_tokens),
    'output_tokens': omg_tokens(u.output_tokens),
    'cache_creation_input_tokens': omg_tokens(u.cache_creation_input_tokens),
    'cache_read_input_tokens': omg_tokens(u.cache_read_input_tokens),
    'cache_creation_5m_input_tokens': omg_tokens(omg_cache_split(u.cache_creation, 'ephemeral_5m_input_tokens')),
    'cache_creation_1h_input_tokens': omg_tokens(omg_cache_split(u.cache_creation, 'ephemeral_1h_input_tokens')),
    'service_tier': u.service_tier
};

-- TRUE when a response's usage is not what it counts with (mistyped.sql says what): usage that
-- counts no tokens (not an object, or an object with none of the four counts: read as a STRUCT,
-- "lots" and {} look alike), cache_creation that is not an object, or a mistyped token count. The
-- line is an error, as a mistyped timestamp is: its tokens would otherwise count as none.
create or replace temp macro omg_usage_mistyped(u) as
    (u is not null and u.input_tokens is null and u.output_tokens is null and u.cache_creation_input_tokens is null
     and u.cache_read_input_tokens is null)
    or coalesce(json_type(u.cache_creation), 'NULL') not in ('OBJECT', 'NULL')
    or omg_tokens_mistyped(u.input_tokens) or omg_tokens_mistyped(u.output_tokens)
    or omg_tokens_mistyped(u.cache_creation_input_tokens) or omg_tokens_mistyped(u.cache_read_input_tokens)
    or omg_tokens_mistyped(omg_cache_split(u.cache_creation, 'ephemeral_5m_input_tokens'))
    or omg_tokens_mistyped(omg_cache_split(u.cache_creation, 'ephemeral_1h_input_tokens'));

-- The text of a tool_result block's content: the string, or its text items joined by newlines.
create or replace temp macro omg_result_text(content) as
    case json_type(content)
        when 'VARCHAR' then content ->> '$'
        when 'ARRAY' then array_to_string(
            list_transform(list_filter(from_json(content, '["JSON"]'), x -> (x ->> 'type') = 'text'), x -> (x ->> 'text')),
            chr(10))
    end;

-- A content block `b` at position `i` as a call (when is_call), with what names a skill, and the path
-- or command of a writing or Bash call; its input's key names are given (the pass that reads them
-- types `input` as a MAP; scan.sql). Lists of these are kept for assistant lines only, in content
-- order: the typed parse decides, so "tool_use" inside a string counts nothing, and progress
-- lines never count.
create or replace temp macro omg_call(b, i, input_keys) as {
    'block': i,
    'is_call': b.type = 'tool_use',
    'id': b.id,
    'name': b.name,
    'input_keys': input_keys,
    'skill': omg_skill_of_call(b.name, b.input['skill'], b.input['command']),
    'path': omg_path_of_call(b.name, b.input['file_path'], b.input['notebook_path']),
    'command': omg_command_of_call(b.name, b.input['command'])
};

-- TRUE when none of the fields the loader reads is on the line: a line that is not JSON, or not an
-- object, or an object without them (`{}` is a record). The loader looks at such lines again to tell.
-- A pass that does not read a field passes NULL for it.
create or replace temp macro omg_keyless(type, subtype, session_id, uuid, ts, ver, sidechain, agent, message) as
    type is null and subtype is null and session_id is null and uuid is null and ts is null
    and ver is null and sidechain is null and agent is null and message is null;

-- A user line's tool_result block `b` at position `i`: the call it answers and whether it says it
-- failed (is_error, or the line's toolUseResult `tur` a string "Error: …"). Both `tur` and the block's
-- content are read as VARCHAR, not JSON (a fifth of the results pass): a string is its text, any
-- other value its JSON text, which is valid JSON and cannot begin "Error:". So a content that is
-- not valid JSON as read was a string, and its text is kept when it is at most 256 bytes (Claude
-- Code writes a Skill result as a string of a line). Any other is marked `big`, and read again, as JSON, only if it
-- answers a Skill call (results-big.sql): longer text, a list of blocks, or a string that reads as
-- JSON itself ("123"). Most results are long (files, command output) and answer no Skill call.
create or replace temp macro omg_result(tur, b, i) as {
    'block': i,
    'is_result': b.type = 'tool_result' and b.tool_use_id is not null,
    'tool_use_id': b.tool_use_id,
    'is_error': coalesce(b.is_error, false)
        or coalesce(starts_with(tur, 'Error:'), false),
    'big': strlen(b.content) > 256 or json_valid(b.content),
    'result': case when strlen(b.content) <= 256 and not json_valid(b.content) then b.content end
};

-- A user line's tool_results: its one content block `b1` as a result (`n` blocks), or those of its list
-- `content` of several; `tur` is the line's toolUseResult. The passes read b1 once per line, as for calls.
create or replace temp macro omg_result1(type, n, b1, tur) as
    case when type = 'user' and n = 1 and b1.type = 'tool_result' and b1.tool_use_id is not null then omg_result(tur, b1, 1) end;

create or replace temp macro omg_results(type, n, content, tur) as
    case when type = 'user' and n > 1
         then list_filter(list_transform(content, (b, i) -> omg_result(tur, b, i)), r -> r.is_result)
    end;

-- TRUE when a line's timestamp or version (read as JSON) is not a string (omg_mistyped).
create or replace temp macro omg_line_mistyped(ts, ver) as
    omg_mistyped(ts) or omg_mistyped(ver);

-- The instant of a line's timestamp, whatever offset it is written with; NULL when it is no
-- RFC 3339 time (omg_rfc3339, sql/rfc3339.sql: "infinity" or a bare date is no time).
create or replace temp macro omg_instant(ts) as
    omg_rfc3339(ts);

-- The project of a transcript file: the folder that holds its session's file (`<sid>.jsonl`, and
-- `agent-*.jsonl` beside it or under `<sid>/subagents/`); under ~/.claude/projects, the project's slug.
create or replace temp macro omg_project(abs) as
    regexp_extract(abs, '([^/]+)/(?:[^/]+/subagents/)?[^/]+$', 1);

-- TRUE when a `progress` line mirrors a sub-agent's API response: since 2.1.38 Claude Code copies a
-- sub-agent's lines into its parent's file (data.message, the sub-agent's record, whose message has
-- its usage). Where the sub-agent's own file is missing the mirror is the only trace of the response;
-- where it is not, the two share message.id and requestId and count once (messages.sql). A mirror
-- without usage is no snapshot: Claude Code writes none, and it would count a response of no tokens.
create or replace temp macro omg_mirrored(type, mirror) as
    coalesce(type = 'progress' and mirror.type = 'assistant' and mirror.message.usage is not null, false);

-- The passes that keep rows keep a mirroring line's `data` whole, as read_json typed it, in JSON
-- (`mirror`, NULL on every other line: a column of that struct had cost 40 MB of rows per 560 MB of
-- transcripts), and read it as a response after the pass, where mirrors are few: choosing between a
-- line's fields and a mirror's on every line had cost the pass about a fifth (bench/README.md).
-- omg_mirror_of types it back as the passes read `data`.
create or replace temp macro omg_mirror_of(mirror) as
    from_json(mirror, '{"agentId": "VARCHAR", "message": {"type": "VARCHAR", "timestamp": "JSON", "requestId": "VARCHAR",
                        "message": {"model": "VARCHAR", "id": "VARCHAR", "usage": {"input_tokens": "JSON", "output_tokens": "JSON",
                        "cache_creation_input_tokens": "JSON", "cache_read_input_tokens": "JSON", "cache_creation": "JSON",
                        "service_tier": "VARCHAR"}}}}');

-- TRUE when a line mirrors a response (`mirrored`, omg_mirrored) whose timestamp or usage is mistyped,
-- checked as a line's are (mistyped.sql): its own file may be missing. `data` as the passes read it; a
-- CASE, not an AND, which DuckDB evaluates whole on every line.
create or replace temp macro omg_mirror_mistyped(mirrored, data) as
    case when mirrored then omg_mistyped(data.message.timestamp) or omg_usage_mistyped(data.message.message.usage) else false end;

-- The response a mirror (omg_mirror_of) gives (unnest() it into a response's columns): at the sub-agent's own
-- timestamp, or else at its line's (`ts`, as text), and where its line was made (`cwd`, `git_branch`).
create or replace temp macro omg_mirror_response(mirror, ts, cwd, git_branch) as struct_concat({
    'timestamp': case when mirror.message.timestamp is not null then mirror.message.timestamp ->> '$' else ts end,
    'message_id': mirror.message.message.id,
    'request_id': mirror.message.requestId,
    'model': mirror.message.message.model}, omg_usage_fields(mirror.message.message.usage), {
    'is_sidechain': true,
    'agent_id': mirror.agentId,
    'cwd': cwd,
    'git_branch': git_branch});

-- An assistant line's API response as the line states it, or the one a progress line mirrors
-- (`mirrored`; the pass gives the mirrored record's fields then): its ids, model and usage snapshot
-- `u`, and where and by whom it was made. NULL for any other line. An assistant line with no usage
-- is a response too, of unknown tokens (messages.ts warns of it): dropped, it had passed in silence.
-- `o` gives its record number; the other arguments are the fields as read_json types them. A
-- mirror's usage and timestamp are checked as a line's are (mistyped.sql): its own file may be missing.
create or replace temp macro omg_response(o, type, mirrored, session_id, ts, message_id, model, u, request_id, sidechain, agent, cwd, git_branch) as
    case when type = 'assistant' or mirrored then struct_concat({
        'o': o,
        'session_id': session_id,
        'timestamp': ts ->> '$',
        'message_id': message_id,
        'request_id': request_id,
        'model': model}, omg_usage_fields(u), {
        'is_sidechain': mirrored or coalesce(sidechain, false),
        'agent_id': agent,
        'cwd': cwd,
        'git_branch': git_branch,
        'mirrored': mirrored,
        'mistyped': omg_usage_mistyped(u) or (mirrored and omg_mistyped(ts))
    }) end;

-- An assistant line's calls: its one content block `b1` as a call (`n` blocks), or its list
-- `content` of several. The passes read b1 (message.content[1]) once per line, in their inner
-- select. The keyed ones give each call's input keys (a MAP's keys, sorted), for the passes that fill every
-- column of transcript_tool_uses (full, calls); the others none (lean, usage).
create or replace temp macro omg_call1(type, n, b1) as
    case when type = 'assistant' and n = 1 and b1.type = 'tool_use' then omg_call(b1, 1, null::VARCHAR[]) end;

create or replace temp macro omg_calls(type, n, content) as
    case when type = 'assistant' and n > 1
         then list_filter(list_transform(content, (b, i) -> omg_call(b, i, null::VARCHAR[])), c -> c.is_call)
    end;

create or replace temp macro omg_call1_keyed(type, n, b1) as
    case when type = 'assistant' and n = 1 and b1.type = 'tool_use' then omg_call(b1, 1, list_sort(map_keys(b1.input))) end;

create or replace temp macro omg_calls_keyed(type, n, content) as
    case when type = 'assistant' and n > 1
         then list_filter(list_transform(content, (b, i) -> omg_call(b, i, list_sort(map_keys(b.input)))), c -> c.is_call)
    end;

-- What a pass keeps of the lines of one file and session, aggregated as it reads: counts, the
-- first line (by ordinality, which gives record numbers), the lines to look at again (keyless,
-- mistyped), and the lines that hold calls or results, each with what its rows need: a
-- line of one content block (every real transcript's) as a struct, a line of several as a list,
-- which costs more to collect; and how many `progress` lines, whose mirrored calls are read again
-- (mirrors.sql) only from the files that hold one.
-- The first timestamp is the earliest instant, not the least text: 10:00:00+09:00 comes before
-- 05:00:00Z, and a timestamp that is no time is not one.
-- Versions and models are the keys of a histogram: list(distinct …) would build a hash table of
-- its own per aggregate. (A comment inside the body breaks the macro: DuckDB then reports
-- "Cannot mix aggregates with non-aggregated columns".)
create or replace temp macro omg_group(o, keyless, mistyped, line_type, ts, ver, line_model, sidechain, agent, call1, calls, result1, results) as {
    'lines': count(*),
    'first_o': min(o),
    'keyless_o': list(o) filter (where keyless),
    'mistyped_o': min(o) filter (where mistyped),
    'first_timestamp': min(omg_instant(ts)),
    'versions': map_keys(histogram(ver) filter (where ver is not null)),
    'models': map_keys(histogram(line_model) filter (where line_type = 'assistant' and line_model is not null)),
    'calls1': list({'o': o, 'timestamp': ts, 'version': ver, 'model': line_model, 'is_sidechain': sidechain,
                    'agent_id': agent, 'call': call1}) filter (where call1 is not null),
    'calls': list({'o': o, 'timestamp': ts, 'version': ver, 'model': line_model, 'is_sidechain': sidechain,
                   'agent_id': agent, 'calls': calls}) filter (where len(calls) > 0),
    'results1': list({'o': o, 'timestamp': ts, 'result': result1}) filter (where result1 is not null),
    'results': list({'o': o, 'timestamp': ts, 'results': results}) filter (where len(results) > 0),
    'progress': count(*) filter (where line_type = 'progress')
};

-- The id a model is priced by (model_prices): without a date suffix (claude-opus-4-5-20251101) or a
-- bracketed variant (claude-opus-5[1m], as an envelope's modelUsage names a 1M-context session).
create or replace temp macro omg_price_key(model) as
    regexp_replace(model, '(-[0-9]{8})?(\[[^\]]*\])?$', '');
