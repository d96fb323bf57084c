-- transcript_files, from scan_files, once every line is known to be a record.
create or replace table transcript_files as
select dir, file, n as lines, abs
from scan_files;
