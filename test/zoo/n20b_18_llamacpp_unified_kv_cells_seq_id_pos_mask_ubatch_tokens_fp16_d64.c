/* llama.cpp's unified KV cache: every cell carries a seq_id and a pos (llama_kv_cells), and
 * llm_graph_input_attn_kv sets kq_mask to -INFINITY where the cell belongs to another sequence
 * or is in the query's future (cell pos > token pos); the ubatch's tokens carry their own seq_id
 * and pos. K [n_kv][n_head_kv][64] ggml order, GQA by h / (n_head / n_head_kv), kq_scale. */
#include <math.h>
#include <stdint.h>

void llama_unified_kv_attn(int n_tokens, int n_head, int n_head_kv, int n_kv, float kq_scale,
		const _Float16 q[n_tokens][n_head][64], const _Float16 k[n_kv][n_head_kv][64], const _Float16 v[n_kv][n_head_kv][64],
		const int32_t cell_seq_id[n_kv], const int32_t cell_pos[n_kv], const int32_t tok_seq_id[n_tokens],
		const int32_t tok_pos[n_tokens], float kqv_out[n_tokens][n_head][64])
{
	const int n_gqa = n_head / n_head_kv;
#pragma fuse kernel(llama_unified_kv_attn) parallel(h, t)
	for (int h = 0; h < n_head; h++)
		for (int t = 0; t < n_tokens; t++) {
			float M = -INFINITY, S = 0.0f, VKQ[64];
			for (int d = 0; d < 64; d++) VKQ[d] = 0.0f;
			for (int c = 0; c < n_kv; c++) {
				const float mv = (cell_seq_id[c] != tok_seq_id[t] || cell_pos[c] > tok_pos[t]) ? -INFINITY : 0.0f;
				if (mv == -INFINITY) continue;
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[t][h][d] * (float)k[c][h / n_gqa][d];
				s = s * kq_scale + mv;
				const float Mold = M;
				float ms = 1.0f, vs = 1.0f;
				if (s > M) { M = s; ms = expf(Mold - M); } else { vs = expf(s - M); }
				for (int d = 0; d < 64; d++) VKQ[d] = VKQ[d] * ms + vs * (float)v[c][h / n_gqa][d];
				S = S * ms + vs;
			}
			for (int d = 0; d < 64; d++) kqv_out[t][h][d] = S > 0.0f ? VKQ[d] / S : 0.0f;
		}
}
