-- transcript_files as export writes it: `file` is relative to the transcripts folder already;
-- `dir` and `abs` are absolute paths of the exporting machine.
select * exclude (dir, abs) from transcript_files
