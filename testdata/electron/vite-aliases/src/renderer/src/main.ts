import { createApp } from 'vue'
import App from './App.vue'
import '@renderer/assets/main.css'

createApp(App).mount('#app')
