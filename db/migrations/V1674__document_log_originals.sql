-- A sealed document log's original text is stored as one object (decision 1674): the row records
-- where, beside the SHA-256 it already holds. NULL for a log sealed before this column existed
-- or by a writer configured to keep no original; such a log's text is still read from its parts.
ALTER TABLE document_logs ADD COLUMN sealed_original TEXT;
