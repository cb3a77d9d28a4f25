"""Dense retrieval over policy sentences: the embedder, the FAISS index and the reranker."""
