package dev.protomolt.core.parts;

import java.util.List;

/**
 * The shape of a generated document: which parts exist, how big they are, where unknown fields
 * sit. {@link RandomDocuments} fills in the values. Property tests draw recipes with jqwik; the
 * fixture corpus draws them from a seeded {@link java.util.Random}.
 *
 * @param docId          the document id (any unicode, possibly empty)
 * @param searchMetadata whether search_metadata is absent, present but empty, or filled
 * @param resultIds      result ids of the semantic results, in order (runs, repeats, blanks)
 * @param vectorDims     floats per chunk embedding
 * @param blob           the blob_bag shape
 * @param blobBytes      size of each inline blob
 * @param parsedEntries  number of parsed_metadata entries
 * @param structured     whether structured_data is set
 * @param ownership      whether ownership is set
 * @param unknownFields  unknown fields to add at each level that gets them (0 = none)
 * @param text           a unicode sample used for free-text fields
 */
public record DocumentRecipe(
    String docId,
    Presence searchMetadata,
    List<String> resultIds,
    int vectorDims,
    BlobShape blob,
    int blobBytes,
    int parsedEntries,
    boolean structured,
    boolean ownership,
    int unknownFields,
    String text) {

  public enum Presence {
    ABSENT,
    EMPTY,
    FILLED
  }

  public enum BlobShape {
    ABSENT,
    EMPTY_BAG,
    INLINE,
    SEVERAL,
    STORAGE_REF
  }

  public DocumentRecipe {
    resultIds = List.copyOf(resultIds);
  }
}
