import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

// The built site lands where Maven packages it into the console jar, under protomolt-console/,
// which is where the local HTTP front and the stack's asset deployment read it.
export default defineConfig({
  plugins: [vue()],
  base: './',
  build: {
    outDir: 'target/classes/protomolt-console',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
  },
});
