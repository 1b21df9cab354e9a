# The dcledger image of docker-compose.yml: the compiled CLI on Node 20. One image, every role:
# `serve --role api|worker|scheduler`, and `migrate` before them.
FROM node:20-bookworm
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
# better-sqlite3 compiles from source; the full bookworm image has python3, make and g++.
RUN npm install --no-audit --no-fund --ignore-scripts && npm rebuild better-sqlite3
COPY . .
RUN npm run build
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
ENTRYPOINT ["node", "bin/dcledger.js"]
CMD ["serve"]
