package dev.protomolt.cli;

/**
 * How far a set of documents got, node by node, as the document store's ledger records it (read
 * through the gateway's {@code PlatformRunsService}, decision 1523): at each
 * node (the intake copies appear under the datasource's id) how many of the documents were stored
 * there and how many parts those copies hold.
 *
 * @param node the graph node, or {@code intake:<datasource>} for the intake copies
 * @param documents documents stored at the node
 * @param parts present parts of those copies (core, blobs, chunk sets, parsed metadata)
 */
public record NodeTally(String node, int documents, long parts) {}
