# websift's HTTP service (`websift serve`): the JSON API, the conversation event streams and the dashboard.
#   docker build -t websift .
#   docker run --read-only --tmpfs /tmp -p 8788:8788 \
#     -e WEBSIFT_SERVE_TOKEN -e WEBSIFT_ADMIN_TOKEN -e WEBSIFT_REDIS_URL websift
# Tokens and keys come from the environment at run time; nothing secret is baked into the image.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 builds from source where no prebuilt binary fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# `npm ci` runs the package's prepare script, which builds dist/.
RUN npm ci --no-audit --no-fund \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOME=/tmp \
    XDG_CACHE_HOME=/tmp/cache \
    WEBSIFT_SERVE_HOST=0.0.0.0 \
    WEBSIFT_SERVE_PORT=8788 \
    WEBSIFT_STORE=memory
WORKDIR /app
# Owned by root and read-only to the service: it writes only under /tmp (mount a tmpfs there).
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8788
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "const t=process.env.WEBSIFT_SERVE_TOKEN;fetch('http://127.0.0.1:'+(process.env.WEBSIFT_SERVE_PORT||8788)+'/v1/health',{headers:t?{authorization:'Bearer '+t}:{}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve", "--grace", "8"]
